"""What is still split between the engines above the rules (issue 31): a count anyone can check.

Counted in ``src/callbreak`` of a checkout, by reading its source (nothing is imported):

a. **Branches on the engine or the game above games/** (in env, bots, record, review, protocol,
   arena, store, server, learn, cli), per layer:

   - ``isinstance``/``issubclass`` on an engine's state, view, result or options type (the
     classes of ``core/match.py``, ``core/view.py``, ``core/rules.py`` and ``games/``, and the
     view protocol ``GameView``);
   - a game's name compared to a literal: a comparison with a registered game's name (``==
     "callbreak"``, ``in ("callbreak", "call-bridge")``), with a module constant holding such
     names (``CALL_BREAK_ENGINE``), or of ``.NAME``/``.game``/``.family`` with any text;
   - a table keyed by game names (a dict literal whose keys are all game names);
   - the same comparisons in the web app (``server/static/*.js``).

   A branch kept because a capability is honestly absent says so, and why, in a comment on its
   line or the line above ("A capability honestly absent: ..."); those are counted apart.

b. **getattr/hasattr calls** in all of src, each classified by :data:`GETATTR_USES` (file and
   call, read by a person): a *probe* asks a game, view, option set, rules, result or action for
   something its type does not declare; *other* is everything else (typer internals, thread
   locals, entry-point factories, a declared field read by name). A call not in the table shows
   up as *unclassified*, to be read and added.

c. **Renderers and types**: the web app's files that draw a table (a ``felt``; a module
   imported for its ``render...`` function but missing from the tree counts too, see 43fc602),
   and per concept the classes of the rules (core/ and games/): engine-root states (defining
   ``apply`` and ``legal_actions``), views (a non-empty ``PUBLIC_FIELDS``), deal results,
   phase enums, completed tricks, dealers.

Run::

    python benchmarks/engine_split.py                         # this checkout
    python benchmarks/engine_split.py --tree /tmp/before-43fc602 --tree .   # a column each
    python benchmarks/engine_split.py --list                  # every hit as file:line, and why
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ABOVE_GAMES = ("env", "bots", "record", "review", "protocol", "arena", "store", "server", "learn", "cli")
RULES = ("core", "games")
ABSENT_MARK = "honestly absent"  # in a comment on a branch or the line above: kept on purpose
NAME_ATTRIBUTES = {"NAME", "game", "family", "game_name"}  # what holds a game's name
# The engines' own classes (and every file of games/); trick_game.py and scoring.py since 65a317c.
ENGINE_TYPE_FILES = ("core/match.py", "core/view.py", "core/rules.py", "core/trick_game.py", "core/scoring.py")
PROBE, OTHER = "probe", "other"

# Every getattr/hasattr call met in the counted commits, keyed by file and the call as
# ast.unparse writes its first two arguments. Kind, and why (for a probe: what is asked of what).
GETATTR_USES: dict[tuple[str, str], tuple[str, str]] = {
    # server
    ("server/limits.py", "getattr(cls(), k)"): (OTHER, "a limit's type from its dataclass default"),
    ("server/cluster.py", "getattr(self.service, method)"): (OTHER, "a forwarded call's method"),
    ("server/cluster.py", "getattr(self.service, message['method'])"): (OTHER, "a forwarded call's method"),
    ("server/tables.py", "getattr(self, method)"): (OTHER, "a forwarded call's method"),
    ("server/tables.py", "getattr(self, f'_{method}')"): (OTHER, "a forwarded call's method"),
    ("server/tables.py", "getattr(defaults, 'deals')"): (PROBE, "options: a deal count"),
    ("server/tables.py", "hasattr(defaults, 'deals')"): (PROBE, "options: a deal count"),
    ("server/tables.py", "getattr(defaults, 'turn_timer')"): (PROBE, "options: a turn timer"),
    ("server/engines.py", "getattr(game, 'can_stop')"): (PROBE, "game: whether it can stop"),
    ("server/app.py", "getattr(game, 'totals')"): (PROBE, "game: totals"),
    ("server/wire.py", "getattr(value, 'to_json')"): (OTHER, "any value's JSON form"),
    ("server/wire.py", "getattr(value, 'to_dict')"): (OTHER, "any value's JSON form"),
    ("server/wire.py", "getattr(value, f.name)"): (OTHER, "a dataclass's declared fields"),
    ("server/wire.py", "getattr(view, name)"): (OTHER, "a view's allow-listed fields"),
    ("server/wire.py", "getattr(action, 'card')"): (PROBE, "action: its card"),
    ("server/words.py", "getattr(e.factory, '__module__')"): (OTHER, "an entry point's module"),
    # bots
    ("bots/base.py", "getattr(factory, '__module__')"): (OTHER, "a bot factory's module"),
    ("bots/base.py", "getattr(factory, 'games')"): (OTHER, "an entry-point bot factory's games"),
    ("bots/base.py", "getattr(factory, 'description')"): (OTHER, "an entry-point bot factory"),
    ("bots/base.py", "getattr(factory, 'requires')"): (OTHER, "an entry-point bot factory"),
    ("bots/base.py", "getattr(factory, 'extra')"): (OTHER, "an entry-point bot factory"),
    ("bots/base.py", "getattr(factory, 'kernel')"): (OTHER, "an entry-point bot factory"),
    ("bots/kernel.py", "getattr(module, name)"): (OTHER, "the kernel's compiled functions"),
    ("bots/kernel.py", "getattr(self, name)"): (OTHER, "the kernel's compiled functions, by entry point"),
    ("cli/base.py", "getattr(command, 'rich_help_panel')"): (OTHER, "a click command's help panel"),
    ("bots/simple.py", "getattr(a, 'blind')"): (PROBE, "action: a blind call"),
    # protocol, arena, learn: optional abilities of bots, errors, torch modules
    ("protocol/server.py", "getattr(bot, 'read')"): (OTHER, "a bot's optional reading"),
    ("protocol/server.py", "hasattr(bot, 'style_prior')"): (OTHER, "a bot's optional reading"),
    ("protocol/server.py", "getattr(bot, 'reading')"): (OTHER, "a bot's optional reading"),
    ("arena/players.py", "getattr(player, 'name')"): (OTHER, "a player's name"),
    ("arena/runner.py", "getattr(p, 'name')"): (OTHER, "a player's name"),
    ("arena/runner.py", "getattr(player, 'name')"): (OTHER, "a player's name"),
    ("referee.py", "getattr(error, 'fault_kind')"): (OTHER, "an error's fault kind"),
    ("arena/duplicate.py", "getattr(opts, 'max_hands')"): (PROBE, "options: a hand limit"),
    ("arena/duplicate.py", "getattr(opts, 'deals')"): (PROBE, "options: a deal count"),
    ("arena/duplicate.py", "hasattr(opts, 'deals')"): (PROBE, "options: a deal count"),
    ("arena/duplicate.py", "getattr(self.options, 'partnership')"): (PROBE, "options: partnership"),
    ("learn/evaluate.py", "getattr(bot, 'name')"): (OTHER, "a bot's name"),
    ("learn/train.py", "hasattr(m, 'weight')"): (OTHER, "torch layers with weights"),
    ("learn/refine.py", "hasattr(m, 'weight')"): (OTHER, "torch layers with weights"),
    # env
    ("env/aec.py", "getattr(game, 'hands')"): (PROBE, "game: the hands"),
    ("env/openspiel.py", "getattr(e, 'results')"): (PROBE, "game: its results"),
    ("env/openspiel.py", "getattr(action, 'seat')"): (PROBE, "action: its seat"),
    ("env/resample.py", "getattr(engine, 'stock')"): (PROBE, "game: the stock"),
    ("env/resample.py", "hasattr(view, 'caps')"): (PROBE, "view: which engine"),
    # cli
    ("cli/base.py", "getattr(typer.core, 'TyperOption')"): (OTHER, "typer internals"),
    ("cli/base.py", "getattr(option, 'display_type_rich')"): (OTHER, "typer internals"),
    ("cli/base.py", "getattr(shown, '_flags_bare')"): (OTHER, "typer internals"),
    ("cli/base.py", "getattr(self, 'is_flag')"): (OTHER, "typer internals"),
    ("cli/tui/render.py", "getattr(action, yes)"): (PROBE, "action: a yes/no field"),
    ("cli/tui/render.py", "getattr(view, 'calls')"): (PROBE, "view: calls"),
    ("cli/tui/render.py", "getattr(view, 'low_high')"): (PROBE, "view: low-high"),
    ("cli/tui/render.py", "getattr(view, 'deals')"): (PROBE, "view: a deal count"),
    ("cli/tui/render.py", "getattr(view, 'options')"): (PROBE, "view: options"),
    ("cli/tui/render.py", "getattr(getattr(view, 'options', None), 'max_hands')"): (PROBE, "options: a hand limit"),
    ("cli/tui/render.py", "getattr(view, 'tiebreak_seats')"): (PROBE, "view: a tie-break"),
    ("cli/tui/render.py", "getattr(view, 'rules')"): (PROBE, "view: rules"),
    ("cli/tui/render.py", "getattr(getattr(view, 'rules', None), 'trump')"): (PROBE, "rules: a fixed trump"),
    ("cli/tui/render.py", "getattr(fixed, 'value')"): (PROBE, "rules: a fixed trump's value"),
    ("cli/tui/render.py", "getattr(view, 'upcard')"): (PROBE, "view: an upcard"),
    ("cli/tui/render.py", "getattr(view, 'contract')"): (PROBE, "view: a contract"),
    ("cli/tui/render.py", "getattr(view, 'stock_size')"): (PROBE, "view: a stock"),
    ("cli/tui/render.py", "getattr(r, 'tiebreak')"): (PROBE, "result: a tie-break"),
    ("cli/tui/render.py", "getattr(view.results[-1], 'note')"): (PROBE, "result: a note"),
    ("cli/tui/render.py", "getattr(view, 'chips')"): (PROBE, "view: chips"),
    ("cli/tui/render.py", "getattr(action, 'seat')"): (PROBE, "action: its seat"),
    ("cli/tui/app.py", "getattr(view, 'call_range')"): (PROBE, "view: the call range"),
    ("cli/tui/app.py", "getattr(self.session.game.options, 'turn_timer')"): (PROBE, "options: a turn timer"),
    ("cli/tui/app.py", "getattr(a, 'blind')"): (PROBE, "action: a blind call"),
    ("store/db.py", "getattr(self._local, 'writer')"): (OTHER, "a thread-local connection"),
    ("store/db.py", "getattr(bad, 'dbapi_connection')"): (OTHER, "SQLAlchemy's failed connection"),
    ("store/db.py", "getattr(getattr(bad, 'dbapi_connection', None), 'closed')"): (OTHER, "SQLAlchemy's failed connection"),
    ("store/db.py", "getattr(e.orig, 'sqlstate')"): (OTHER, "the driver's error code"),
    # the rules
    ("core/actions.py", "getattr(action, 'seat')"): (PROBE, "action: its seat"),
    ("core/match.py", "getattr(action, 'kind')"): (OTHER, "refuses what is not an action"),
    ("games/base.py", "getattr(action, 'kind')"): (OTHER, "refuses what is not an action"),
    ("core/rules.py", "getattr(self, f.name)"): (OTHER, "a dataclass's declared fields"),
    ("core/rules.py", "getattr(rules, f.name)"): (OTHER, "a dataclass's declared fields"),
    ("core/options.py", "getattr(self, f.name)"): (OTHER, "a dataclass's declared fields"),
    ("core/options.py", "getattr(self, name)"): (OTHER, "a declared option read by name"),
    ("games/base.py", "getattr(self, f.name)"): (OTHER, "a dataclass's declared fields"),
    ("games/base.py", "getattr(view, 'to_act' if name == 'turn' else name)"): (OTHER, "a view's declared fields"),
    ("core/game.py", "getattr(self, 'hand')"): (PROBE, "view: a hand"),
    ("core/trick_game.py", "getattr(obj, names[0])"): (OTHER, "the state's declared slots, for clone and snapshot"),
    ("games/spaces.py", "getattr(opts, 'deals')"): (PROBE, "options: a deal count"),
    ("games/spaces.py", "getattr(opts, 'max_hands')"): (PROBE, "options: a hand limit"),
}


@dataclass(frozen=True, slots=True)
class Hit:
    path: str  # relative to src/callbreak
    line: int
    what: str  # the measure it counts for
    text: str  # the code, or the classification's reason
    absent: bool = False  # a branch commented as honestly absent


def layer(path: str) -> str:
    return path.split("/")[0] if "/" in path else "(top)"


def python_files(src: Path) -> Iterator[tuple[str, str, ast.Module]]:
    for f in sorted(src.rglob("*.py")):
        text = f.read_text(encoding="utf-8")
        yield f.relative_to(src).as_posix(), text, ast.parse(text)


def game_names(modules: list[tuple[str, str, ast.Module]]) -> set[str]:
    """Every registered game's name and alias, read from the rules: ``NAME = "..."`` class
    attributes, ``name="..."`` registry entries and ``register_alias("...", ...)``."""
    names = {"callbreak"}
    for path, _, tree in modules:
        if layer(path) not in RULES:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and _is_str(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "NAME" for t in targets):
                    names.add(node.value.value)  # type: ignore[union-attr]
            elif isinstance(node, ast.Call):
                names.update(k.value.value for k in node.keywords if k.arg == "name" and _is_str(k.value))  # type: ignore[union-attr]
                if _called(node) == "register_alias" and node.args and _is_str(node.args[0]):
                    names.add(node.args[0].value)  # type: ignore[attr-defined]
    names.discard("")
    return names


def engine_types(modules: list[tuple[str, str, ast.Module]]) -> set[str]:
    """The engines' own classes (state, view, result, options...), by name."""
    out = {"GameView"}  # the view protocol of core/game.py as well
    for path, _, tree in modules:
        if path in ENGINE_TYPE_FILES or path.startswith("games/"):
            out.update(n.name for n in tree.body if isinstance(n, ast.ClassDef))
    return out


def _is_str(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _ident(node: ast.AST) -> str:
    if isinstance(node, ast.Subscript):  # Protocol[ViewT, ActionT]
        node = node.value
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _names_literal(node: ast.AST, names: set[str]) -> bool:
    """A game's name, or a tuple/list/set of game names."""
    if _is_str(node):
        return node.value in names  # type: ignore[attr-defined]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts:
        return all(_is_str(e) and e.value in names for e in node.elts)  # type: ignore[attr-defined]
    return False


def name_constants(modules: list[tuple[str, str, ast.Module]], names: set[str]) -> set[str]:
    """Module constants holding a game's name or names (``CALL_BREAK_ENGINE``)."""
    out = set()
    for _, _, tree in modules:
        for node in tree.body:
            if isinstance(node, ast.Assign) and _names_literal(node.value, names):
                out.update(t.id for t in node.targets if isinstance(t, ast.Name) and t.id.isupper())
    return out


def _absent(lines: list[str], first: int, last: int, comment: str) -> bool:
    """Whether lines ``first`` to ``last`` (from 1), or the comment lines just above, say that
    the branch is kept."""
    above = first - 1
    while above > 1 and lines[above - 2].lstrip().startswith(comment):
        above -= 1
    return any(_marked(line, comment) for line in lines[above - 1:last])


def _marked(line: str, comment: str) -> bool:
    """Whether ``line`` has a comment (``comment``: "#" or "//") saying the branch is kept."""
    start = line.find(comment)
    return start >= 0 and ABSENT_MARK in line[start:].lower()


def python_branches(modules: list[tuple[str, str, ast.Module]]) -> list[Hit]:
    names = game_names(modules)
    types = engine_types(modules)
    constants = name_constants(modules, names)
    hits = []
    for path, text, tree in modules:
        if layer(path) not in ABOVE_GAMES:
            continue
        lines = text.splitlines()
        for node in ast.walk(tree):
            what = _branch_kind(node, names, types, constants)
            if what:
                code = lines[node.lineno - 1].strip()
                last = getattr(node, "end_lineno", None) or node.lineno  # ast's optional end
                hits.append(Hit(path, node.lineno, what, code, _absent(lines, node.lineno, last, "#")))
    return hits


def _branch_kind(node: ast.AST, names: set[str], types: set[str], constants: set[str]) -> str:
    if isinstance(node, ast.Call) and _called(node) in ("isinstance", "issubclass") and len(node.args) == 2:
        kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        if any(_ident(k) in types for k in kinds):
            return "isinstance on an engine type"
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        if any(_names_literal(o, names) or _ident(o) in constants for o in operands):
            return "game name compared"
        if any(_ident(o) in NAME_ATTRIBUTES for o in operands) and any(_is_str(o) for o in operands):
            return "game name compared"
    if isinstance(node, ast.Dict) and node.keys and all(k is not None and _names_literal(k, names)
                                                        for k in node.keys):
        return "table keyed by game names"
    return ""


JS_COMPARE = r"(?:===|!==|==|!=)"


def js_branches(static: Path, names: set[str]) -> list[Hit]:
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    literal = rf"""["'](?:{alternatives})["']"""
    pattern = re.compile(rf"{JS_COMPARE}\s*\(?\s*{literal}|{literal}\s*{JS_COMPARE}|case\s+{literal}"
                         rf"|\[\s*{literal}(?:\s*,\s*{literal})*\s*\]\s*\.includes"
                         rf"|\b(?:game|family)\s*{JS_COMPARE}\s*[\"']")
    hits = []
    for f in sorted(static.glob("*.js")):
        lines = f.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            code = line.split("//")[0]
            for _ in pattern.finditer(code):
                absent = _absent(lines, i + 1, i + 1, "//")
                hits.append(Hit(f"server/static/{f.name}", i + 1, "web app", line.strip(), absent))
    return hits


def getattr_calls(modules: list[tuple[str, str, ast.Module]]) -> list[Hit]:
    hits = []
    for path, _, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("getattr", "hasattr") and len(node.args) >= 2:
                key = f"{node.func.id}({ast.unparse(node.args[0])}, {ast.unparse(node.args[1])})"
                kind, why = GETATTR_USES.get((path, key), ("unclassified", "read it and add it to GETATTR_USES"))
                hits.append(Hit(path, node.lineno, kind, f"{key}: {why}"))
    return hits


def renderers(static: Path) -> list[Hit]:
    """Each function of the web app that draws a table (a felt), and each module imported for a
    ``render...`` function that the tree does not have."""
    hits = []
    imported = re.compile(r"""import\s*\{([^}]*)\}\s*from\s*["']/static/([\w.-]+)["']""")
    for f in sorted(static.glob("*.js")):
        text = f.read_text(encoding="utf-8")
        for names, module in imported.findall(text):
            if not (static / module).exists() and re.search(r"\brender\w*", names):
                hits.append(Hit(f"server/static/{module}", 0, "missing", f"imported by {f.name}, not in the tree"))
        functions: list[tuple[int, str]] = []  # (indent, name) of the functions we are in
        for i, line in enumerate(text.splitlines()):
            indent = len(line) - len(line.lstrip())
            m = re.match(r"\s*(?:export\s+)?(?:async\s+)?function\s+(\w+)", line)
            if m:
                functions = [(d, n) for d, n in functions if d < indent] + [(indent, m.group(1))]
            if re.search(r"""class:\s*["']felt\b""", line):
                inside = [n for d, n in functions if d < indent]
                hits.append(Hit(f"server/static/{f.name}", i + 1, "felt", inside[-1] if inside else "(top)"))
    return hits


VOCABULARY = {  # concept -> how its classes are known, in core/ and games/
    "engine-root state (apply + legal_actions)": None,
    "view (non-empty PUBLIC_FIELDS)": None,
    "deal result (…Result)": re.compile(r"\w*Result$"),
    "phase enum (…Phase)": re.compile(r"\w*Phase$"),
    "completed trick (…Trick)": re.compile(r"(Completed|Game)Trick$"),
    "dealer (defines chance)": None,
}


def vocabulary(modules: list[tuple[str, str, ast.Module]]) -> list[Hit]:
    hits = []
    states = {}  # classes defining apply and legal_actions -> (path, line, their bases)
    for path, _, tree in modules:
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or any(_ident(b) == "Protocol" for b in node.bases):
                continue
            methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
            if "chance" in methods and layer(path) in RULES:
                hits.append(Hit(path, node.lineno, "dealer (defines chance)", node.name))
            if {"apply", "legal_actions"} <= methods:
                states[node.name] = (path, node.lineno, {_ident(b) for b in node.bases})
            if layer(path) not in RULES:
                continue
            if any(_assigns_nonempty(n, "PUBLIC_FIELDS") for n in node.body):
                hits.append(Hit(path, node.lineno, "view (non-empty PUBLIC_FIELDS)", node.name))
            for concept, pattern in VOCABULARY.items():
                if pattern is not None and pattern.match(node.name):
                    hits.append(Hit(path, node.lineno, concept, node.name))
    # A root is a state class that is not a subclass of another (Match is a TrickGame since 65a317c).
    for name, (path, line, bases) in states.items():
        if not bases & states.keys():
            hits.append(Hit(path, line, "engine-root state (apply + legal_actions)", name))
    return hits


def _assigns_nonempty(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    else:
        return False
    named = any(isinstance(t, ast.Name) and t.id == name for t in targets)
    return named and not (isinstance(value, ast.Tuple) and not value.elts)


@dataclass
class Count:
    label: str
    rows: dict[str, int]
    hits: list[Hit]


def count(tree: Path) -> Count:
    src = tree / "src" / "callbreak"
    if not src.is_dir():
        raise SystemExit(f"no src/callbreak under {tree}")
    modules = list(python_files(src))
    branches = python_branches(modules) + js_branches(src / "server" / "static", game_names(modules))
    calls = getattr_calls(modules)
    drawn = renderers(src / "server" / "static")
    classes = vocabulary(modules)
    rows: dict[str, int] = {}
    kept = [b for b in branches if not b.absent]
    rows["branches above games/ (not commented)"] = len(kept)
    for what in ("isinstance on an engine type", "game name compared", "table keyed by game names", "web app"):
        rows[f"· {what}"] = sum(b.what == what for b in kept)
    by_layer = Counter(layer(b.path) if b.what != "web app" else "server/static" for b in kept)
    for name in (*ABOVE_GAMES, "server/static"):
        rows[f"· in {name}"] = by_layer[name]
    rows["branches commented 'honestly absent' (kept)"] = sum(b.absent for b in branches)
    above = [c for c in calls if layer(c.path) in ABOVE_GAMES]
    rows["getattr/hasattr probes above games/"] = sum(c.what == PROBE for c in above)
    rows["getattr/hasattr probes in core/ and games/"] = sum(c.what == PROBE for c in calls) - rows[
        "getattr/hasattr probes above games/"]
    rows["getattr/hasattr other uses (all src)"] = sum(c.what == OTHER for c in calls)
    rows["getattr/hasattr unclassified"] = sum(c.what == "unclassified" for c in calls)
    rows["web renderer files (draw a table)"] = len({h.path for h in drawn})
    rows["· table-drawing functions"] = sum(h.what == "felt" for h in drawn)
    for concept in VOCABULARY:
        rows[concept] = sum(c.what == concept for c in classes)
    return Count(_label(tree), rows, branches + calls + drawn + classes)


def _label(tree: Path) -> str:
    try:
        out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--", "src"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return out.stdout.strip() + ("+" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return tree.name


def main() -> None:
    here = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", action="append", type=Path,
                    help="a checkout to count (repeat for a column each; default: this one)")
    ap.add_argument("--list", action="store_true", help="every hit as file:line, and why")
    args = ap.parse_args()
    counts = [count(t.resolve()) for t in (args.tree or [here])]
    print("| | " + " | ".join(c.label for c in counts) + " |")
    print("|---|" + "---:|" * len(counts))
    for row in counts[0].rows:
        print(f"| {row} | " + " | ".join(str(c.rows[row]) for c in counts) + " |")
    if args.list:
        for c in counts:
            print(f"\n## {c.label}")
            for h in sorted(c.hits, key=lambda h: (h.what, h.path, h.line)):
                mark = " [absent]" if h.absent else ""
                print(f"src/callbreak/{h.path}:{h.line}: {h.what}{mark}: {h.text}")


if __name__ == "__main__":
    main()
