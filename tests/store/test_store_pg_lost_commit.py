"""PostgreSQL: a write whose connection is lost while its COMMIT is under way (the outcome is unknown to the
bot). Between the store and the real server sits a TCP relay that cuts one connection at the COMMIT: after the
server committed and before its answer came back, or before the COMMIT reached the server. The store never
repeats the write; it asks the database on a new connection whether the write took effect (an action or an
undo by its interaction id, a new game or an abandon by the row it would have left): yes → the write's row
(acknowledged once), no → StoreUnavailable (nothing was changed, now known), cannot ask (the server is away) →
OutcomeUnknown (the player is told it may or may not have been saved)."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import new_game_args, play

from bot.store import PostgresStore, StoreUnavailable
from bot.store.postgres import CommitLost, OutcomeUnknown

COMMIT_DONE = b"COMMIT\x00"  # the server's CommandComplete for a COMMIT


class Relay:
    """127.0.0.1:port → the server. ``cut_at_commit(after=True)``: the next COMMIT a client sends is passed on
    and the server's answer withheld (``after``), or not passed on at all; then both sides are cut.
    ``refuse_after_cut``: no new connection is accepted after the cut (the server seems away)."""

    def __init__(self, server_port: int) -> None:
        self.server_port = server_port
        self.cut: str | None = None
        self.refuse_after_cut = False
        self.refusing = False
        self.cuts = 0
        self.withheld = b""

    async def start(self) -> None:
        self.listener = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self.listener.sockets[0].getsockname()[1]

    async def close(self) -> None:
        self.listener.close()
        await self.listener.wait_closed()

    def dsn(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    async def _relay(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        if self.refusing:
            client_w.transport.abort()
            return
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.server_port)
        holding = False
        answered = asyncio.Event()

        def cut_both() -> None:
            self.cuts += 1
            self.refusing = self.refuse_after_cut
            client_w.transport.abort()
            server_w.transport.abort()

        async def up() -> None:
            nonlocal holding
            while data := await client_r.read(65536):
                if self.cut is not None and b"COMMIT;" in data:
                    mode, self.cut = self.cut, None
                    if mode == "after":
                        holding = True
                        server_w.write(data)
                        await server_w.drain()
                        await answered.wait()  # the server has committed; its answer goes nowhere
                    cut_both()
                    return
                server_w.write(data)
                await server_w.drain()
            server_w.close()

        async def down() -> None:
            while data := await server_r.read(65536):
                if holding:
                    self.withheld += data
                    if COMMIT_DONE in self.withheld:
                        answered.set()
                    continue
                client_w.write(data)
                await client_w.drain()
            client_w.close()

        await asyncio.gather(up(), down(), return_exceptions=True)


@pytest.fixture
async def relay(pg_server):
    relay = Relay(pg_server.port)
    await relay.start()
    yield relay
    await relay.close()


def _database(pg_dsn: str) -> str:
    return pg_dsn.rsplit("/", 1)[1]


async def test_an_action_committed_whose_answer_was_lost_is_acknowledged_once(relay, pg_dsn) -> None:
    async with PostgresStore(relay.dsn(_database(pg_dsn)), lock_timeout=2.0, connect_timeout=2.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 2)
        relay.cut = "after"
        row = await store.append_action(game.id, expected_ply=2, expected_revision=game.revision,
                                        action={"type": "x"}, user_id=7, interaction_id=4242)
        assert relay.cuts == 1 and COMMIT_DONE in relay.withheld  # the server did commit, the answer was lost
        assert (row.ply, row.revision) == (3, game.revision + 1)
        assert [a.action for a in await store.live_actions(game.id)][-1] == {"type": "x"}
        assert len(await store.live_actions(game.id)) == 3  # once
        # The undo's COMMIT answer lost alike: settled by its own interaction id.
        relay.cut = "after"
        row = await store.undo_action(game.id, expected_ply=3, expected_revision=row.revision, user_id=7,
                                      interaction_id=4343)
        assert relay.cuts == 2 and (row.ply, row.revision) == (2, game.revision + 2)
        assert len(await store.live_actions(game.id)) == 2


async def test_an_action_whose_commit_never_arrived_is_refused_and_not_stored(relay, pg_dsn) -> None:
    async with PostgresStore(relay.dsn(_database(pg_dsn)), lock_timeout=2.0, connect_timeout=2.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 2)
        relay.cut = "before"
        with pytest.raises(StoreUnavailable) as info:
            await store.append_action(game.id, expected_ply=2, expected_revision=game.revision,
                                      action={"type": "x"}, user_id=7, interaction_id=4242)
        assert relay.cuts == 1 and info.value.params == {"reason": "unreachable"}
        assert not isinstance(info.value, CommitLost)  # settled: it is known that nothing was changed
        assert (await store.game(game.id)).ply == 2
        # The same interaction again (a retry by the player): applied now, once.
        row = await store.append_action(game.id, expected_ply=2, expected_revision=game.revision,
                                        action={"type": "x"}, user_id=7, interaction_id=4242)
        assert row.ply == 3 and len(await store.live_actions(game.id)) == 3


async def test_a_lost_commit_that_cannot_be_asked_about_is_an_unknown_outcome(relay, pg_dsn) -> None:
    async with PostgresStore(relay.dsn(_database(pg_dsn)), lock_timeout=2.0, connect_timeout=2.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 2)
        relay.cut, relay.refuse_after_cut = "after", True
        with pytest.raises(OutcomeUnknown):
            await store.append_action(game.id, expected_ply=2, expected_revision=game.revision,
                                      action={"type": "x"}, user_id=7, interaction_id=4242)
        relay.refusing = False
        assert (await store.game(game.id)).ply == 3  # it had been stored; the bot said "may or may not"


async def test_without_an_interaction_id_a_lost_commit_is_not_repeated(relay, pg_dsn) -> None:
    async with PostgresStore(relay.dsn(_database(pg_dsn)), lock_timeout=2.0, connect_timeout=2.0) as store:
        game = await play(store, await store.create_game(**new_game_args()), 2)
        relay.cut = "after"
        with pytest.raises(CommitLost):
            await store.append_action(game.id, expected_ply=2, expected_revision=game.revision,
                                      action={"type": "x"}, user_id=7)
        assert len(await store.live_actions(game.id)) == 3  # stored once, never written again


@pytest.mark.parametrize("cut", ["after", "before"])
async def test_starting_or_abandoning_a_game_whose_commit_lost_its_answer_is_settled(relay, pg_dsn, cut) -> None:
    """No interaction id here: the store looks for the row that write would have left (the channel's active game
    with this owner, seed and creation time; the game abandoned at this call's time)."""
    async with PostgresStore(relay.dsn(_database(pg_dsn)), lock_timeout=2.0, connect_timeout=2.0) as store:
        relay.cut = cut
        if cut == "after":
            game = await store.create_game(**new_game_args(100))
            assert relay.cuts == 1 and COMMIT_DONE in relay.withheld
            assert (await store.active_game(100)) == game and await store.count_games() == 1
        else:
            with pytest.raises(StoreUnavailable) as info:
                await store.create_game(**new_game_args(100))
            assert not isinstance(info.value, CommitLost) and await store.count_games() == 0
            game = await store.create_game(**new_game_args(100))  # trying again starts it
        game = await play(store, game, 1)
        relay.cut = cut
        if cut == "after":
            ended = await store.abandon(game.id, expected_ply=1, by_user=7)
            assert relay.cuts == 2 and ended.status == "abandoned" and ended.revision == game.revision + 1
            assert (await store.result(game.id)).outcome == "abandoned"
        else:
            with pytest.raises(StoreUnavailable):
                await store.abandon(game.id, expected_ply=1, by_user=7)
            assert (await store.game(game.id)).status == "active" and await store.result(game.id) is None


async def test_a_lost_start_that_cannot_be_asked_about_is_an_unknown_outcome(relay, pg_dsn) -> None:
    async with PostgresStore(relay.dsn(_database(pg_dsn)), lock_timeout=2.0, connect_timeout=2.0) as store:
        relay.cut, relay.refuse_after_cut = "after", True
        with pytest.raises(OutcomeUnknown):
            await store.create_game(**new_game_args(100))
        relay.refusing = False
        assert await store.count_games() == 1
