"""How `make test` hands the tests to its xdist workers (tests/conftest.py installs it when xdist runs).

xdist's scope scheduler, with two changes. The load suites (tests/load, and the stand-in's burst of 200 interactions) are one unit of work, so one worker runs
them one after another; being the largest unit, it is handed out first. And while they run, at most one other
worker takes new tests beside them: they count commands answered within Discord's deadline and the bytes the bot
holds, and on a 2-core machine each of the two then has a core. Once they are done, every worker takes tests
again. Every other test is a unit of its own.

(Not `--dist loadgroup` with `xdist_group` marks: xdist 3.8 groups by rewriting `item._nodeid`, which pytest 9
no longer reads.)
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling
from xdist.workermanage import WorkerController

LOAD_SUITES = "tests/load"  # the unit's name; as xdist names the tests: relative to the repository root
# The tests in that unit: the load suites, and the stand-in's own burst of 200 interactions at once.
IN_THE_UNIT = (LOAD_SUITES + "/", "tests/standin/test_standin_concurrency.py::")


class LoadSuitesBesideOneWorker(LoadScopeScheduling):
    def _split_scope(self, nodeid: str) -> str:
        return LOAD_SUITES if nodeid.startswith(IN_THE_UNIT) else nodeid

    def _load_running(self) -> bool:
        if LOAD_SUITES in self.workqueue:
            return True
        return any(not all(unit[LOAD_SUITES].values()) for unit in self.assigned_work.values() if LOAD_SUITES in unit)

    def _beside_the_load(self, node: WorkerController) -> bool:
        """The worker running the load suites, and the first of the others."""
        others = [n for n, unit in self.assigned_work.items() if LOAD_SUITES not in unit]
        return node not in others or node is others[0]

    def _reschedule(self, node: WorkerController) -> None:
        if self._load_running() and not self._beside_the_load(node):
            return  # held until the load suites are done
        super()._reschedule(node)

    def mark_test_complete(self, node: WorkerController, item_index: int, duration: float = 0) -> None:
        running = self._load_running()
        super().mark_test_complete(node, item_index, duration)
        if running and not self._load_running():  # the load suites are done: the held workers take tests again
            for other in self.nodes:
                if other is not node:
                    self._reschedule(other)
