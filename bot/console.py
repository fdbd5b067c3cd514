"""The local console: play the bot's commands in a terminal, through the Discord stand-in.

    python -m bot console [--json] [--db PATH] [--lang en|ja] [--user NAME] [--channel NAME | --dm |
                          --group-dm NAME] [--files DIR] [--verbose]

Lines, one interaction each (its whole reply is printed before the next line is read):
    /<game> start difficulty:wizard dice:table       a slash command, options as `name:value`
    /<game> die face:"2 water, 3 crystals, 1 dot"    values with spaces in quotes ("…" or '…') —
    /<game> die face:2 water, 3 crystals             — or unquoted, running to the next `name:`
    /game card ナリア                                 a bare value fills the command's one required option
    press 2                                          the 2nd button of the last message that has buttons
                                                     (rows top to bottom, left to right, selects included)
    press 3 value1,value2                            choose options in a select menu (values or labels,
    select 3 value1,value2                           comma separated, a whole label taken as one;
                                                     `select` is for menus only)
    form cards="12, 31" note=done                    fill the form a button opened (field id or label)
    quit (or exit, or the end of input)              leave
Blank lines and lines starting with `#` are skipped; a bad line is reported (what it echoes of the line cut to
a few hundred characters) and the console goes on; an option given twice is refused, not the last one taken.
Discord's markdown (**bold**, `code`, ~~struck~~…) is shown as plain text; --json keeps it as sent. When output
stops being read (`| head`), the console ends quietly. On a game in progress, the banner reprints the buttons of
its last reply, ready for `press N`.
A command is read as Discord's picker would find it: a full-width slash (`／game`), any case, one typo.
The language is --lang, else the terminal's (LC_ALL, LC_MESSAGES, LANG); replies go to stdout, the banner
(and, with --verbose, log lines) to stderr. `--channel NAME` plays in the channel NAME (made when new),
`--channel PARENT/NAME` in the thread NAME under PARENT; `--dm` in your DM with the bot (interaction context 1:
no server, the result card stays in the DM), `--group-dm NAME` in a group DM with haruka, where the bot is
reached only through your own install of the app (context 2: every reply through the interaction). Attachments (the board, the result card, the export)
are written to the folder --files names and the reply prints their path.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import dataclasses
import json
import logging
import os
import re
import sys
import tempfile
import unicodedata
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any, TextIO

from engine.core.text import one_edit

from .config import Config
from .standin import DriverError, File, NoReply, Reply, StandIn, World
from .standin.driver import Driver, Message, attachment_name, choice_names, media_urls
from .standin.protocol import IS_COMPONENTS_V2

LOCALES = {"en": "en-US", "ja": "ja"}
UPDATE_MESSAGE = 7  # an interaction answered by editing the message its component is on
TEXT_SUFFIXES = (".json", ".txt", ".md", ".csv", ".log")

MESSAGES = {
    "en": {
        "console.error.unknown_command": "Unknown command {command}. Commands: {choices}",
        "console.error.incomplete_command": "{command} needs one of: {choices}",
        "console.error.near_command": "There is no command {command}. Did you mean: {choices}",
        "console.error.unknown_option": "{command} has no option `{option}`. Options: {choices}",
        "console.error.missing_option": "{command} needs: {option}",
        "console.error.bad_choice": "`{option}` cannot be {value!r}. Choose one of: {choices}",
        "console.error.bad_value": "`{value}` is not a valid value for `{option}`",
        "console.error.bad_integer": "`{option}` takes a whole number from {low} to {high}, not `{value}`",
        "console.error.bad_number": "`{option}` takes a number from {low} to {high}, not `{value}`",
        "console.error.bad_length": "`{option}` takes {low} to {high} characters ({length} given)",
        "console.error.bad_boolean": "`{option}` takes true or false, not `{value}`",
        "console.error.unsupported_option": "The console cannot fill the option `{option}`",
        "console.error.no_button": "There is no button {number} on the last message",
        "console.error.no_buttons": "The last message has no buttons",
        "console.error.disabled": "The button {label} is disabled",
        "console.error.link": "Button {number} is a link: {url}",
        "console.error.no_form": "No form is open: press the button that opens it first",
        "console.error.unknown_field": "The form has no field `{field}`. Fields: {choices}",
        "console.error.missing_field": "The form needs the field `{field}`",
        "console.error.bad_option": "`{field}` has no option “{value}”. Options: {choices}",
        "console.error.bad_checkbox": "`{field}` is a checkbox: answer yes or no, not “{value}”",
        "console.error.bad_count": "`{field}` takes {low} to {high} options ({count} given, each once)",
        "console.field.select": "select",
        "console.field.radio": "one of",
        "console.field.checkboxes": "checkboxes",
        "console.field.checkbox": "checkbox: yes or no",
        "console.field.up_to": "up to {count}, comma separated",
        "console.yes": "yes",
        "console.error.syntax": "Cannot read {text!r}: write options as name:value",
        "console.error.unknown_line": "Type a command (/…), `press N` or `form field=value`",
        "console.error.no_reply": "The bot did not answer",
        "console.ephemeral": "(only you can see this)",
        "console.posted": "(posted in #{channel})",
        "console.form": "Form “{title}” — fill it with: form {fields}",
        "console.optional": "optional",
        "console.kept": "kept",
        "console.disabled": "disabled",
        "console.rejected": "(Discord refused a reply: {message})",
        "console.start_failed": "The bot could not start: {error}",
        "console.banner": "Local console ({lang}): type commands as in Discord, e.g. /game help. Games are kept in {where}. Type `quit` or `exit` (or Ctrl-D) to leave.",
        "console.banner_temporary": "a temporary file deleted when you leave (use `--db PATH`, or `make run`, to keep them)",
        "console.banner_files": "Attachments (pictures, exports) are written to {files}.",
        "console.banner_game": "In progress in #{channel}: {game} #{game_id}, {where}.",
        "console.error.nested_thread": "Cannot play in `{channel}`: a thread cannot hold a thread (`--channel PARENT/NAME` takes a channel as PARENT)",
        "console.error.repeated_option": "`{option}` is given twice: give it once",
        "console.error.select_on_button": "[{number}] {label} is a button, not a menu: `press {number}` presses it",
        "console.error.values_on_button": "[{number}] {label} is a button: it takes no values (`press {number}`)",
        "console.banner_buttons": "The last reply's buttons: {buttons}",
    },
    "ja": {
        "console.error.unknown_command": "「{command}」というコマンドはありません。コマンド: {choices}",
        "console.error.incomplete_command": "「{command}」の後に次のどれかを指定してください: {choices}",
        "console.error.near_command": "「{command}」というコマンドはありません。次のどれかですか: {choices}",
        "console.error.unknown_option": "`{command}` に「{option}」というオプションはありません。オプション: {choices}",
        "console.error.missing_option": "`{command}` には次のオプションが必要です: {option}",
        "console.error.bad_choice": "`{option}` に「{value}」は指定できません。選択肢: {choices}",
        "console.error.bad_value": "「{value}」は `{option}` の値として正しくありません",
        "console.error.bad_integer": "`{option}` には{low}から{high}までの整数を指定してください（「{value}」は指定できません）",
        "console.error.bad_number": "`{option}` には{low}から{high}までの数を指定してください（「{value}」は指定できません）",
        "console.error.bad_length": "`{option}` は{low}〜{high}文字で指定してください（{length}文字でした）",
        "console.error.bad_boolean": "`{option}` には「はい」か「いいえ」を指定してください（「{value}」は指定できません）",
        "console.error.unsupported_option": "コンソールではオプション `{option}` を指定できません",
        "console.error.no_button": "最後のメッセージに「{number}」番のボタンはありません",
        "console.error.no_buttons": "最後のメッセージにはボタンがありません",
        "console.error.disabled": "［{label}］ボタンは押せません",
        "console.error.link": "{number}番のボタンはリンクです: {url}",
        "console.error.no_form": "開いているフォームがありません。先にフォームを開くボタンを押してください",
        "console.error.unknown_field": "フォームに「{field}」という項目はありません。項目: {choices}",
        "console.error.missing_field": "フォームの項目 `{field}` を入力してください",
        "console.error.bad_option": "`{field}` に「{value}」という選択肢はありません。選択肢: {choices}",
        "console.error.bad_checkbox": "`{field}` はチェックボックスです。「はい」か「いいえ」で答えてください（「{value}」は指定できません）",
        "console.error.bad_count": "`{field}` では{low}〜{high}個を選んでください（{count}個でした。同じものは1回だけ選べます）",
        "console.field.select": "選択",
        "console.field.radio": "1つ選択",
        "console.field.checkboxes": "チェックボックス",
        "console.field.checkbox": "チェックボックス: はい／いいえ",
        "console.field.up_to": "「、」区切りで{count}個まで",
        "console.yes": "はい",
        "console.error.syntax": "「{text}」を読み取れません。オプションは `名前:値` の形で書いてください",
        "console.error.unknown_line": "コマンド（`/…`）、`press 番号`、`form 項目=値` のどれかを入力してください",
        "console.error.no_reply": "ボットから応答がありませんでした",
        "console.ephemeral": "（あなただけに表示されています）",
        "console.posted": "（#{channel}に投稿）",
        "console.form": "フォーム「{title}」— 入力方法: form {fields}",
        "console.optional": "任意",
        "console.kept": "入力済み",
        "console.disabled": "無効",
        "console.rejected": "（Discordが応答を拒否しました: {message}）",
        "console.start_failed": "ボットを起動できませんでした: {error}",
        "console.banner": "ローカルコンソール（{lang}）です。Discordと同じようにコマンドを入力してください（例: `/game help`）。ゲームの保存先は{where}です。終了するには `quit` か `exit` を入力してください（`Ctrl-D` でも終了します）。",
        "console.banner_temporary": "終了時に消える一時ファイル（残すには `--db PATH` か `make run` を使ってください）",
        "console.banner_files": "添付ファイル（画像、エクスポート）の保存先: {files}。",
        "console.banner_game": "#{channel}で進行中: {game} #{game_id}、{where}。",
        "console.error.nested_thread": "`{channel}` ではプレイできません。スレッドの中にスレッドは作れません（`--channel 親/名前` の親にはチャンネルを指定してください）",
        "console.error.repeated_option": "`{option}` が2回指定されています。1回だけ指定してください",
        "console.error.select_on_button": "[{number}]は［{label}］ボタンで、メニューではありません。押すには `press {number}` と入力してください",
        "console.error.values_on_button": "[{number}]の［{label}］ボタンには値を指定できません（`press {number}`）",
        "console.banner_buttons": "直前の応答のボタン: {buttons}",
    },
}

OPTION = re.compile(r"([\w-]+)[:：]")
FIELD = re.compile(r"([\w-]+)=")
USER_MENTION = re.compile(r"<@!?(\d+)>")
CHANNEL_MENTION = re.compile(r"<#(\d+)>")
QUOTES = {'"': '"', "'": "'", "“": "”", "「": "」"}


class LineError(Exception):
    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = key, params


# -- parsing ---------------------------------------------------------------------------------------------------


SLASHES = ("/", "／")


def parse_command(line: str, names: list[str], option_names: Callable[[str], list[str]],
                  bare: Callable[[str], str | None] | None = None) -> tuple[str, dict[str, str]]:
    """`/<game> die face:2 water` → ("<game> die", {"face": "2 water"}); `names` are the known commands.

    The command's words are read as Discord's picker finds them: any case, full-width letters or slash
    (`／Game`, what a Japanese input method types), and one typo when it fits one command only. A value typed
    before any `name:` goes to the option ``bare`` names for the command (its one required option), as
    Discord's client puts what is typed after a command into its first option."""
    raw = line.strip().lstrip("".join(SLASHES)).split()
    words = [unicodedata.normalize("NFKC", w).casefold() for w in raw[:max(len(n.split()) for n in names)]] if names else []
    command: list[str] = []
    for word in words:
        level = sorted({n.split()[len(command)] for n in names
                        if n.split()[:len(command)] == command and len(n.split()) > len(command)})
        if not level:
            break
        if ":" in word and command:  # an option: the command has ended, or lacks its subcommand
            break
        command.append(_one_of(word, level, command))
        if " ".join(command) in names and not any(n.startswith(" ".join(command) + " ") for n in names):
            break
    name = " ".join(command)
    if name not in names:
        if command:
            raise LineError("console.error.incomplete_command", command="/" + name,
                            choices=", ".join(sorted(n.split(" ", 1)[-1] for n in names if n.startswith(name + " "))))
        raise LineError("console.error.unknown_command", command="/" + (raw[0] if raw else ""),
                        choices=", ".join(sorted({"/" + n.split()[0] for n in names})))
    rest = line.strip()[1:] if line.strip()[:1] in SLASHES else line.strip()
    for word in raw[:len(command)]:
        rest = rest.lstrip()[len(word):]
    first = bare(name) if bare is not None else None
    if first is not None and rest.strip() and OPTION.match(rest.strip()) is None:
        rest = f"{first}:{rest.lstrip()}"
    return name, parse_pairs(rest, OPTION, option_names(name), name)


def _one_of(word: str, level: list[str], command: list[str]) -> str:
    """The command word meant by `word` (already folded) among `level`: itself, or the one a typo away."""
    if word in level:
        return word
    near = [w for w in level if one_edit(word, w)]
    if len(near) == 1:
        return near[0]
    typed = "/" + " ".join([*command, word])
    if near:
        raise LineError("console.error.near_command", command=typed,
                        choices=", ".join("/" + " ".join([*command, w]) for w in near))
    if command:
        raise LineError("console.error.incomplete_command", command=typed,
                        choices=", ".join(level))
    raise LineError("console.error.unknown_command", command=typed, choices=", ".join("/" + w for w in level))


def parse_pairs(text: str, pattern: re.Pattern[str], known: list[str], command: str) -> dict[str, str]:
    """`name:value` (or `name=value`) pairs: a value is quoted, or runs up to the next known `name:`."""
    values: dict[str, str] = {}
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return values
        match = pattern.match(text, pos)
        if match is None:
            raise LineError("console.error.syntax", text=text[pos:].strip())
        name = match[1]
        if known and name not in known:
            raise LineError("console.error.unknown_option", option=name, command="/" + command,
                            choices=", ".join(known) or "-")
        if name in values:  # Discord's client holds one value an option: a second is a mistake, not a change
            raise LineError("console.error.repeated_option", option=name)
        pos = match.end()
        if pos < len(text) and text[pos] in QUOTES:
            end = text.find(QUOTES[text[pos]], pos + 1)
            if end < 0:
                raise LineError("console.error.syntax", text=text[pos:])
            values[name] = text[pos + 1:end]
            pos = end + 1
            continue
        end = len(text)
        for later in re.finditer(r"\s+" + pattern.pattern, text[pos:]):
            if not known or later[1] in known:
                end = pos + later.start()
                break
        values[name] = text[pos:end].strip()
        pos = end


# -- printing --------------------------------------------------------------------------------------------------


class Printer:
    def __init__(self, out: TextIO, lang: str, as_json: bool, world: World, files: Path | None = None) -> None:
        self.out, self.lang, self.as_json, self.world = out, lang, as_json, world
        self.files = files  # where attachments are written (readable output only: --json carries them)

    def t(self, key: str, **params: Any) -> str:
        if self.lang == "ja":  # a negative number with a real minus sign, as the bot's Japanese writes it
            params = {k: f"−{-v}" if isinstance(v, int | float) and v < 0 else v for k, v in params.items()}
        return MESSAGES[self.lang][key].format(**params)

    def error(self, key: str, **params: Any) -> None:
        params = {k: _clipped(v) if k in ECHOED else v for k, v in params.items()}
        text = self.t(key, **params)
        self._emit({"error": text, "key": key} if self.as_json else f"! {text}")

    def post(self, message: Any) -> None:
        """A channel post the bot made outside any reply's window (a late result card)."""
        channel = self.world.find_channel(message.channel_id)
        self.message(Message(message.id, message.channel_id, dict(message.sent), list(message.files), False,
                             "channel"), None, channel_name=channel.name if channel else str(message.channel_id))

    def reply(self, reply: Reply) -> None:
        for message in reply.messages:
            if not self.as_json and retired_only(message, reply):
                continue  # printed already, when it came: a press only took its controls away (one live reply)
            self.message(message, reply)
        if reply.modal:
            self.modal(reply.modal)
        for body in reply.rejections:
            self.error("console.rejected", message=body.get("message"))

    def message(self, message: Message, reply: Reply | None, channel_name: str | None = None) -> None:
        if self.as_json:
            self._emit(message.payload | {"files": [_file_json(f) for f in message.files]})
            return
        lines = []
        if message.ephemeral:
            lines.append(self.t("console.ephemeral"))
        if message.kind == "channel" and (reply is None or message.channel_id != reply.record.channel.id):
            channel = self.world.find_channel(message.channel_id)
            lines.append(self.t("console.posted", channel=channel_name or (channel.name if channel else "?")))
        if message.payload.get("content"):
            lines.append(plain(message.payload["content"]))
        for embed in message.payload.get("embeds") or []:
            lines += [plain(line) for line in _embed_lines(embed)]
        if _laid_out(message.payload):
            lines += self._layout(message)
        else:
            buttons = []
            for number, comp in enumerate(message.buttons, 1):
                buttons.append(self.button(number, comp))
            if buttons:
                lines.append("  ".join(buttons))
        for f in message.files:
            lines.append(f"📎 {self._saved(f)} ({len(f.data)} bytes)")
        self._emit(self._mentions("\n".join(lines)) + "\n")

    def _layout(self, message: Message) -> list[str]:
        """A Components V2 message as it reads, top to bottom: each Text Display's lines, a picture as
        ``🖼 board.png``, each control where it stands, numbered as ``press N`` counts them (a section's
        button at the end of its text, as Discord shows it beside; an action row's controls on one line)."""
        numbers = {id(c): n for n, c in enumerate(message.buttons, 1)}
        lines: list[str] = []

        def walk(components: list[dict[str, Any]]) -> None:
            for comp in components:
                kind = comp.get("type")
                if id(comp) in numbers:
                    lines.append(self.button(numbers[id(comp)], comp))
                elif kind == 1:
                    controls = [self.button(numbers[id(c)], c) for c in comp.get("components") or []
                                if id(c) in numbers]
                    if controls:
                        lines.append("  ".join(controls))
                elif kind == 10:
                    lines.append(plain(str(comp.get("content") or "")))
                elif kind == 14 and comp.get("divider", True):
                    lines.append("─" * 8)
                elif kind in (11, 12):
                    lines.extend(f"🖼 {_media_name(url)}" for url in media_urls([comp]))
                elif kind == 13:  # a File component: a download, not a picture
                    lines.extend(f"📄 {_media_name(url)}" for url in media_urls([comp]))
                elif kind == 9 and id(comp.get("accessory")) in numbers:  # a button beside the line it acts on
                    start = len(lines)
                    walk(comp.get("components") or [])
                    control = self.button(numbers[id(comp["accessory"])], comp["accessory"])
                    if len(lines) > start:
                        lines[-1] = f"{lines[-1]}  {control}"
                    else:
                        lines.append(control)
                else:  # a container, a section: what it holds, then a section's accessory
                    walk(comp.get("components") or [])
                    if isinstance(comp.get("accessory"), dict):
                        walk([comp["accessory"]])

        walk(message.payload.get("components") or [])
        return lines

    def _saved(self, f: File) -> str:
        """The attachment written to the files folder (a later one of the same name replaces it): its path."""
        if self.files is None:
            return f.filename
        self.files.mkdir(parents=True, exist_ok=True)
        path = self.files / Path(f.filename).name  # the name only: an attachment never writes elsewhere
        path.write_bytes(f.data)
        return str(path)

    def _mentions(self, text: str) -> str:
        """Mentions as Discord shows them (``<@1153…>`` → ``@player``, ``<#…>`` → ``#table``); an id the
        stand-in's world does not know stays as it is."""
        def user(match: re.Match[str]) -> str:
            try:
                return f"@{self.world.user(int(match[1])).name}"
            except KeyError:
                return match[0]

        def channel(match: re.Match[str]) -> str:
            found = self.world.find_channel(int(match[1]))
            return f"#{found.name}" if found else match[0]

        return CHANNEL_MENTION.sub(channel, USER_MENTION.sub(user, text))

    def button(self, number: int, comp: dict[str, Any]) -> str:
        if comp["type"] != 2:
            options = " | ".join(_option_text(o) for o in comp.get("options") or [])
            return f"[{number}] ▾ {comp.get('placeholder') or ''} ({options})".replace("  ", " ")
        label = _label(comp)
        if comp.get("url"):
            label += " ↗"
        if comp.get("disabled"):
            label += f" ({self.t('console.disabled')})"
        return f"[{number}] {label}"

    def modal(self, modal: dict[str, Any]) -> None:
        if self.as_json:
            self._emit({"modal": modal})
            return
        fields = []
        for row in modal.get("components") or []:
            inputs = row.get("components") or [row.get("component") or {}]
            for comp in inputs:
                if comp.get("type") in FORM_KINDS:
                    fields.append(self._field(row, comp))
        self._emit(self.t("console.form", title=modal.get("title", ""), fields=" ".join(fields)) + "\n")

    def _field(self, row: dict[str, Any], comp: dict[str, Any]) -> str:
        """One field of a form: ``name=value (label, kind, optional, kept)``; a select's or a radio group's
        options listed after it, to type by value or label."""
        label = comp.get("label") or row.get("label") or ""
        sep, (left, right) = ("、", "（）") if self.lang == "ja" else (", ", "()")
        kind = FORM_KINDS[comp["type"]]
        notes = [label] + ([] if kind == "text" else [self.t(f"console.field.{kind}")])
        if not comp.get("required", True) and kind != "checkbox":
            notes.append(self.t("console.optional"))
        options = comp.get("options") or []
        if kind == "text":
            # A form reopened to correct it holds what was typed: shown, ready to retype.
            kept = comp.get("value") or ""
        elif kind == "checkbox":
            kept = self.t("console.yes") if comp.get("default") else ""
        else:
            kept = ",".join(str(o["value"]) for o in options if o.get("default"))
            if kind == "select" and comp.get("max_values", 1) > 1:
                notes.append(self.t("console.field.up_to", count=comp["max_values"]))
        if kept:
            notes.append(self.t("console.kept"))
        value = json.dumps(kept, ensure_ascii=False) if kept else "…"
        listed = f" [{' | '.join(_option_text(o) for o in options)}]" if options else ""
        return f"{comp['custom_id']}={value} {left}{sep.join(n for n in notes if n)}{right}{listed}"

    def _emit(self, item: Any) -> None:
        if isinstance(item, dict):
            item = json.dumps(item, ensure_ascii=False)
        print(item, file=self.out, flush=True)


# What an error repeats of the typed line: cut, so a pasted page does not come back whole.
ECHOED = frozenset({"text", "command", "value", "option", "field", "label", "url", "number"})
ECHO_MAX = 200


def retired_only(message: Message, reply: Reply) -> bool:
    """Whether ``message`` is the one a press came from, answered by taking its controls away (UPDATE_MESSAGE) while
    the press's new reply follows: the player read it already, and reading it again hides the new reply."""
    pressed = message.id == reply.record.message_id and reply.response_type == UPDATE_MESSAGE
    return pressed and not message.buttons and len(reply.messages) > 1


def _clipped(value: Any) -> Any:
    if isinstance(value, str) and len(value) > ECHO_MAX:
        return f"{value[:ECHO_MAX]}…(+{len(value) - ECHO_MAX})"
    return value


# The fields a form can hold, by component type, as the console names their kind.
FORM_KINDS = {4: "text", 3: "select", 21: "radio", 22: "checkboxes", 23: "checkbox"}


def _label(comp: dict[str, Any]) -> str:
    return str(comp.get("label") or (comp.get("emoji") or {}).get("name") or comp.get("custom_id", ""))


# Discord's markdown, as a terminal cannot show it: the text without its marks. A code block first (its inside
# is left as written), then inline code, then the paired marks; a single * only as Discord reads it, hugging
# its words (so "2 * 3" stays).
CODE_BLOCK = re.compile(r"```(?:[\w+-]*\n)?(.*?)```", re.S)
MARKS = [re.compile(r"`([^`\n]+)`"), re.compile(r"\*\*(.+?)\*\*", re.S), re.compile(r"__(.+?)__", re.S),
         re.compile(r"~~(.+?)~~", re.S), re.compile(r"\|\|(.+?)\|\|", re.S),
         re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")]
SUBTEXT = re.compile(r"^-# ", re.M)
ESCAPED = re.compile(r"\\([*_`~|>#\\-])")


def plain(text: str) -> str:
    """``text`` as Discord would show it, without the markdown marks (``**Attach Files**`` → ``Attach Files``)."""
    blocks: list[str] = []

    def keep(match: re.Match[str]) -> str:
        blocks.append(match[1].rstrip("\n"))
        return f"\0{len(blocks) - 1}\0"

    text = CODE_BLOCK.sub(keep, text)
    text = MARKS[0].sub(keep, text)
    for mark in MARKS[1:]:
        text = mark.sub(r"\1", text)
    text = ESCAPED.sub(r"\1", SUBTEXT.sub("", text))
    return re.sub("\0(\\d+)\0", lambda m: blocks[int(m[1])], text)


def _embed_lines(embed: dict[str, Any]) -> list[str]:
    lines = []
    if (embed.get("author") or {}).get("name"):
        lines.append(embed["author"]["name"])
    if embed.get("title"):
        lines.append(f"## {embed['title']}")
    if embed.get("description"):
        lines.append(embed["description"])
    for fld in embed.get("fields") or []:
        lines.append(f"• {fld.get('name')}: {fld.get('value')}")
    if (embed.get("image") or {}).get("url"):
        lines.append(f"🖼 {embed['image']['url'].rsplit('/', 1)[-1]}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(embed["footer"]["text"])
    return lines


def _laid_out(payload: dict[str, Any]) -> bool:
    """Whether a message is Components V2 (the flag, or a top-level component other than an action row):
    its text and controls are printed in the order its components lay them out."""
    flagged = int(payload.get("flags") or 0) & IS_COMPONENTS_V2
    return bool(flagged) or any(c.get("type") != 1 for c in payload.get("components") or [])


def _media_name(url: str) -> str:
    """``attachment://board.png`` → ``board.png``; a link → its last segment."""
    return attachment_name(url) or url.rsplit("/", 1)[-1].split("?", 1)[0]


def _file_json(f: Any) -> dict[str, Any]:
    if f.filename.lower().endswith(TEXT_SUFFIXES):
        try:
            return {"filename": f.filename, "text": f.data.decode("utf-8")}
        except UnicodeDecodeError:
            pass
    return {"filename": f.filename, "base64": base64.b64encode(f.data).decode()}


# -- the session -----------------------------------------------------------------------------------------------


class Console:
    def __init__(self, driver: Driver, printer: Printer, *, user: str, channel: Any, locale: str) -> None:
        self.driver, self.printer = driver, printer
        self.user, self.channel, self.locale = user, channel, locale
        self.last_buttons: list[dict[str, Any]] = []
        self.last_message_id: int | None = None
        self.posts: list[Any] = []  # channel posts not yet printed
        driver.standin.watch_channels(self.posts.append)

    async def line(self, text: str) -> None:
        text = text.strip()
        if not text or text.startswith("#"):
            return
        try:
            reply = await self._run(text)
        except (LineError, DriverError) as error:
            params = dict(error.params)
            if error.key == "console.error.missing_option":
                params["option"] = self._missing_choices(params)
            self.printer.error(error.key, **params)
            return
        except NoReply as no_reply:
            self.printer.reply(no_reply.reply)
            self.printer.error("console.error.no_reply")
            self.posts.clear()
            return
        pictures = getattr(getattr(self.driver.bot, "controller", None), "pictures", None)
        if pictures is not None:  # a reply's picture follows it by an edit: print the reply with it
            await pictures.idle()
        self.printer.reply(reply)
        self.flush(shown={m.id for m in reply.messages})
        for message in reversed(reply.messages):
            if message.buttons:
                self.last_buttons, self.last_message_id = message.buttons, message.id
                break

    def flush(self, shown: AbstractSet[int] = frozenset()) -> None:
        """Print the channel posts that arrived outside a reply's window."""
        for post in self.posts:
            if post.id not in shown:
                self.printer.post(post)
        self.posts.clear()

    async def _run(self, text: str) -> Reply:
        if text.startswith(SLASHES):
            names = self.driver.command_names()
            command, options = parse_command(text, names, self._option_names, self._bare_option)
            return await self.driver.slash(command, options, channel=self.channel, user=self.user, locale=self.locale)
        word, _, rest = text.partition(" ")
        if word.lower() in ("press", "select"):
            return await self._press(rest.strip(), menu_only=word.lower() == "select")
        if word.lower() == "form":
            modal = self.driver.open_modal
            if modal is None:
                raise LineError("console.error.no_form")
            fields = parse_pairs(rest, FIELD, [], "form")
            return await self.driver.submit(modal["custom_id"], fields, user=self.user, locale=self.locale)
        raise LineError("console.error.unknown_line")

    async def _press(self, rest: str, *, menu_only: bool = False) -> Reply:
        number_text, _, values = rest.partition(" ")
        if not self.last_buttons:
            raise LineError("console.error.no_buttons")
        number = int(number_text) if number_text.isascii() and number_text.isdecimal() and len(number_text) < 9 else 0
        if not 1 <= number <= len(self.last_buttons):
            raise LineError("console.error.no_button", number=number_text[:20] or "?")
        comp = self.last_buttons[number - 1]
        if comp.get("url") or not comp.get("custom_id"):
            raise LineError("console.error.link", number=number, url=comp.get("url", ""))
        if comp["type"] == 2 and (menu_only or values.strip()):  # a button has nothing to choose
            raise LineError("console.error.select_on_button" if menu_only else "console.error.values_on_button",
                            number=number, label=_label(comp))
        chosen = [v.strip() for v in values.split(",") if v.strip()] if comp["type"] != 2 else None
        if comp["type"] == 3:
            by_label = {o.get("label", "").casefold(): o["value"] for o in comp.get("options") or []}
            whole = by_label.get(values.strip().casefold())  # one label with commas in it ("2 water, star, 3 dots")
            chosen = [whole] if whole is not None else [by_label.get(v.casefold(), v) for v in chosen or []]
        return await self.driver.press(comp["custom_id"], message=self.last_message_id, values=chosen,
                                       user=self.user, locale=self.locale)

    def _missing_choices(self, params: dict[str, Any]) -> str:
        """The missing options with what each may be: `difficulty:(apprentice|wizard|archmage)`, `face:…`."""
        try:
            schemas = {o["name"]: o for o in self.driver.find_command(str(params.get("command", "")).lstrip("/"))[2]}
        except Exception:
            return str(params.get("option", ""))
        parts = []
        for name in str(params.get("option", "")).split(", "):
            choices = (schemas.get(name) or {}).get("choices") or []
            values = choice_names(choices, self.locale, "|")
            parts.append(f"{name}:({values})" if values else f"{name}:…")
        return " ".join(parts)

    def _option_names(self, command: str) -> list[str]:
        return [o["name"] for o in self.driver.find_command(command)[2]]

    def _bare_option(self, command: str) -> str | None:
        """The option a bare value fills: the command's one required option, or its first when none is required
        (as Discord's client opens it: `/seasons start wizard`, now that the difficulty may be left out)."""
        options = self.driver.find_command(command)[2]
        required = [o["name"] for o in options if o.get("required")]
        if len(required) == 1:
            return str(required[0])
        return str(options[0]["name"]) if options and not required else None

    async def resume(self) -> str | None:
        """The buttons of the last reply of the game in progress here, pressable (`press N`) in this new process.

        The stand-in of a new console has none of the last process's messages, so the bot is asked for them
        as a player would (`/game status`, which carries the owner's buttons); the reply itself is not printed.
        Their line for the banner, or None when there is nothing to press."""
        if "game status" not in self.driver.command_names():
            return None
        try:
            reply = await self.driver.slash("game status", {}, channel=self.channel, user=self.user, locale=self.locale)
        except (DriverError, NoReply):
            return None
        self.posts.clear()
        for message in reversed(reply.messages):
            if message.buttons and not message.ephemeral:
                self.last_buttons, self.last_message_id = message.buttons, message.id
                return "  ".join(self.printer.button(n, c) for n, c in enumerate(message.buttons, 1))
        return None


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot console", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object per message")
    parser.add_argument("--db", type=Path, default=None, help="keep games in this SQLite file between runs")
    parser.add_argument("--lang", choices=sorted(LOCALES), default=None,
                        help="your Discord language (default: the terminal's, from LC_ALL, LC_MESSAGES or LANG)")
    parser.add_argument("--user", default="player", help="who you are (games belong to their owner)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--channel", default="table",
                       help="where you play: table, session (a thread under table), lobby, any other NAME "
                            "(a new channel) or PARENT/NAME (a thread NAME under the channel PARENT)")
    where.add_argument("--dm", action="store_true", help="play in your DM with the bot")
    where.add_argument("--group-dm", metavar="NAME", default=None,
                       help="play in the group DM NAME (you and haruka), through your own install of the app")
    parser.add_argument("--files", type=Path, default=None,
                        help="write attachments (pictures, exports) to this folder (default: beside the "
                             "database, or a folder in the system's temporary directory)")
    parser.add_argument("--verbose", action="store_true", help="show the bot's log lines (warnings and errors)")
    return parser.parse_args(argv)


def files_folder(args: argparse.Namespace) -> Path:
    """--files, else `<db>-files` beside the database; a temporary database's attachments outlive it."""
    files: Path | None = args.files
    db: Path | None = args.db
    if files is not None:
        return files
    if db is not None:
        return db.with_name(db.stem + "-files")
    return Path(tempfile.gettempdir()) / "solo-console-files"


def terminal_lang(environ: dict[str, str] | None = None) -> str:
    """Japanese when the terminal's locale is Japanese (``LANG=ja_JP.UTF-8``), English otherwise."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "ja" if value.lower().startswith("ja") else "en"
    return "en"


QUIT_WORDS = frozenset({"quit", "exit", "/quit", "/exit"})
BROKEN_PIPE = 141  # the shell's code for a writer ended by SIGPIPE (128 + 13)


def _default_bot_factory(config: Config) -> Any:
    from .app import create_bot

    return create_bot(config)


def _in_words(error: Exception, lang: str) -> str:
    """A store error (locked, full, damaged file) as the bot's sentence; anything else as it describes itself."""
    from .store import StoreError, at_start

    if isinstance(error, StoreError):  # what to do before starting again, not "try again in a moment"
        return at_start(error, lang)
    key, params = getattr(error, "key", None), getattr(error, "params", None)
    if isinstance(key, str) and isinstance(params, dict):
        from .i18n import t

        return t(lang, key, **params)
    return str(error)


async def run(args: argparse.Namespace, bot_factory: Callable[[Config], Any], stdin: TextIO,
              stdout: TextIO) -> int:
    world = World.default()
    args.lang = args.lang or terminal_lang()
    locale = LOCALES[args.lang]
    if args.user not in {u.name for u in world.users}:
        world.add_user(args.user, locale=locale)
    printer = Printer(stdout, args.lang, args.json, world, None if args.json else files_folder(args))
    try:  # the channel exists before the bot connects: it learns its channels then
        channel = _place(world, args)
    except ValueError:
        printer.error("console.error.nested_thread", channel=args.channel)
        return 2
    with tempfile.TemporaryDirectory(prefix="solo-console-") as scratch:
        db_path = args.db if args.db is not None else Path(scratch) / "console.sqlite3"
        db_path.parent.mkdir(parents=True, exist_ok=True)
        # The banner goes to stderr with the logs: stdout holds only the replies.
        where = str(args.db) if args.db is not None else printer.t("console.banner_temporary")
        print(printer.t("console.banner", lang=args.lang, where=where), file=sys.stderr, flush=True)
        if printer.files is not None:
            print(printer.t("console.banner_files", files=printer.files), file=sys.stderr, flush=True)
        async with StandIn(world) as standin:
            config = dataclasses.replace(Config.from_env(), token=None, db_path=db_path, db_url=None,
                                         api_base=standin.api_base, log_level="WARNING")
            bot = bot_factory(config)
            try:
                # Each reply is complete when the bot says it has finished with its interaction
                # (``bot.handled``): a result card posted after the reply prints with it.
                driver = standin.connect(bot, timeout=standin.deadline + 30.0)
                await driver.__aenter__()
            except Exception as error:
                printer.error("console.start_failed", error=_in_words(error, args.lang))
                return 1
            try:
                console = Console(driver, printer, user=args.user, channel=channel, locale=locale)
                if await _banner_game(bot, printer, channel) and (pressable := await console.resume()):
                    print(printer.t("console.banner_buttons", buttons=pressable), file=sys.stderr, flush=True)
                loop = asyncio.get_running_loop()
                prompt = "> " if stdin.isatty() and stdout.isatty() else ""
                while True:
                    if prompt:
                        print(prompt, end="", file=stdout, flush=True)
                    # Read in a thread: the client's heartbeats go on while a person thinks.
                    line = await loop.run_in_executor(None, stdin.readline)
                    if not line or line.strip().lower() in QUIT_WORDS:
                        console.flush()
                        return 0
                    await console.line(line)
            finally:
                await driver.__aexit__(None, None, None)


def _place(world: World, args: argparse.Namespace) -> Any:
    """The channel the console plays in: --dm, --group-dm, else --channel (made when new)."""
    if args.dm:
        return world.dm(args.user)
    if args.group_dm:
        world.user(args.user).installed = True  # a group DM reaches the app only through a user install
        friend = "haruka" if args.user != "haruka" else "player"
        return world.group_dm(args.group_dm, [args.user, friend])
    return world.ensure_channel(args.channel)


async def _banner_game(bot: Any, printer: Printer, channel: Any) -> bool:
    """The banner's line on the game in progress in the console's channel, if any: whether there is one."""
    service = getattr(bot, "service", None)
    row = await service.active(channel.id) if service is not None else None
    if service is None or row is None:
        return False
    from .i18n import t
    from .store import StoreError

    try:
        summary = (await service.record(row)).state.summary()
    except StoreError as err:  # a damaged log: said in words here, and again by each command (issue 37)
        print(t(printer.lang, err.key, **err.params), file=sys.stderr, flush=True)
        return False
    where = bot.games.get(row.kind).progress(printer.lang, summary)
    print(printer.t("console.banner_game", channel=channel.name, game=t(printer.lang, f"word.{row.kind}"),
                    game_id=row.id, where=where), file=sys.stderr, flush=True)
    return True


def main(argv: list[str] | None = None, *, bot_factory: Callable[[Config], Any] | None = None,
         stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """The console's entry point; `bot_factory`, `stdin` and `stdout` are for tests."""
    args = _arguments(sys.argv[1:] if argv is None else argv)
    from . import games

    games.install(games.registry())  # its banner and errors speak of the games before a bot is made
    # Between replies the console shows replies only: the bot's log lines (an expected refusal is not even
    # a warning) wait for --verbose.
    logging.basicConfig(level=logging.WARNING if args.verbose else logging.CRITICAL, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(logging.ERROR if args.verbose else logging.CRITICAL)
    if stdin is None and hasattr(sys.stdin, "reconfigure"):
        # A stray byte that is not UTF-8 in a piped script is a bad line, not the end of the session.
        sys.stdin.reconfigure(errors="replace")
    try:
        return asyncio.run(run(args, bot_factory or _default_bot_factory, stdin or sys.stdin, stdout or sys.stdout))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Nobody reads the replies any more (`… | head`): end quietly, as a pipeline's writer does. Python
        # would report the failed flush of stdout again at exit: point it at /dev/null first.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), (stdout or sys.stdout).fileno())
        return BROKEN_PIPE


def _option_text(option: dict[str, Any]) -> str:
    """A select menu's option as a player reads it: its label, with the value to type when the label lacks it."""
    label, value = option.get("label") or "", str(option.get("value", ""))
    return label if value and value in label else f"{label} = {value}" if label else value
