"""``callbreak train``: the training run that makes the ``neural`` bot's weights."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from callbreak.cli.base import app, fail

if TYPE_CHECKING:
    from callbreak.bots.neural import Network


@app.command()
def train(
    out: Annotated[Path, typer.Option(help="The run's folder: chunks, checkpoints, log.jsonl, "
                                           "curve.png, and at the end neural.npz.")] = Path("runs/neural"),
    seed: Annotated[int, typer.Option(help="Seeds the deals, the seats, the labels and the network.")] = 1,
    generations: Annotated[int, typer.Option(help="Generations of positions and learning (a resumed "
                                                  "run may be given more).")] = 12,
    positions: Annotated[int, typer.Option(help="Positions the expert labels each generation.")] = 30_000,
    samples: Annotated[int, typer.Option(help="Sampled deals behind each of the expert's card labels.")] = 32,
    call_samples: Annotated[int, typer.Option(help="Simulated deals behind each of its call labels.")] = 1024,
    hidden: Annotated[str, typer.Option(help="Widths of the network's hidden layers.")] = "256,256,256",
    steps: Annotated[int, typer.Option(help="Gradient steps each generation.")] = 1_500,
    tables: Annotated[int, typer.Option(help="Tables stepped together in the environment.")] = 32,
    eval_sets: Annotated[int, typer.Option(help="Duplicate sets against heuristic bots after each "
                                                "generation (the learning curve).")] = 25,
    ship: Annotated[bool, typer.Option("--ship/--no-ship", help="Also install the result as the "
                                       "package's neural weights.")] = False,
) -> None:
    """Train the neural bot: self-play on the batched environment, labelled by the expert's search.

    Resumes from the run folder's last checkpoint when it exists (with the same settings). Needs
    PyTorch: pip install 'callbreak\\[train]'. The defaults are the settings of the shipped weights.
    """
    from callbreak.learn.train import Settings, TrainingError, run

    try:
        widths = tuple(int(w) for w in hidden.split(",") if w.strip())
    except ValueError:
        fail(f"--hidden takes whole numbers separated by commas, got {hidden!r}")
        return
    if not widths or min(widths) < 1 or generations < 1 or positions < 1 or steps < 1:
        fail("--hidden, --generations, --positions and --steps must be positive")
        return
    settings = Settings(seed=seed, generations=generations, positions=positions, samples=samples,
                        call_samples=call_samples,
                        hidden=widths, steps=steps, tables=tables, eval_sets=eval_sets)
    command = "callbreak train " + shlex.join(sys.argv[2:]) if len(sys.argv) > 1 else "callbreak train"
    try:
        net = run(out, settings, command=command)
    except TrainingError as e:
        fail(str(e))
        return
    _made(net, out, ship, f"; learning curve: {out / 'curve.png'}")


def _made(net: Network, out: Path, ship: bool, more: str = "") -> None:
    """Say what a run made, and install it as the package's weights if asked."""
    from callbreak.bots.neural import WEIGHTS

    console = Console()
    console.print(f"weights: {out / 'neural.npz'} (made by: {net.meta['command']}, commit "
                  f"{net.meta['commit']}){more}")
    if ship:
        net.save(WEIGHTS)
        console.print(f"installed as the package's weights: {WEIGHTS}")


@app.command("train-outlook")
def train_outlook(
    base: Annotated[Path, typer.Argument(help="The weights whose trunk and policy are kept (a .npz "
                                              "made by `callbreak train`).")],
    out: Annotated[Path, typer.Option(help="The run's folder: chunks, nets, log.jsonl, and at the "
                                           "end neural.npz.")] = Path("runs/outlook"),
    seed: Annotated[int, typer.Option(help="Seeds the deals, the seats and the head.")] = 1,
    generations: Annotated[int, typer.Option(help="Rounds of play and fitting (each round calls by "
                                                  "the last one's head).")] = 3,
    positions: Annotated[int, typer.Option(help="Call positions played out each round.")] = 300_000,
    steps: Annotated[int, typer.Option(help="Gradient steps fitting the head each round.")] = 4_000,
    eval_sets: Annotated[int, typer.Option(help="Duplicate sets against heuristic bots after each "
                                                "round.")] = 50,
    ship: Annotated[bool, typer.Option("--ship/--no-ship", help="Also install the result as the "
                                       "package's neural weights.")] = False,
) -> None:
    """Teach a network the outlook of a hand (the tricks it takes), from deals it plays itself.

    The bot then calls what scores best over that outlook. Labels cost only play on the batched
    environment (no search), so a round of 300,000 positions takes minutes. Resumes from the run
    folder's log. Needs PyTorch: pip install 'callbreak\\[train]'.
    """
    from callbreak.bots.neural import Network, NeuralWeightsError
    from callbreak.learn.train import TrainingError

    if generations < 1 or positions < 1 or eval_sets < 1 or steps < 1:
        fail("--generations, --positions, --steps and --eval-sets must be positive")
        return
    try:
        from callbreak.learn.outlook import OutlookSettings, run_outlook

        net = run_outlook(Network.load(base), out, OutlookSettings(seed=seed, generations=generations,
                                                                   positions=positions, steps=steps,
                                                                   eval_sets=eval_sets),
                          command="callbreak train-outlook " + shlex.join(sys.argv[2:]))
    except (TrainingError, NeuralWeightsError) as e:
        fail(str(e))
        return
    _made(net, out, ship)


@app.command("train-refine")
def train_refine(
    base: Annotated[Path, typer.Argument(help="The weights to refine (with an outlook head: made by "
                                              "`callbreak train-outlook`).")],
    outlook_chunks: Annotated[Path, typer.Option(help="The outlook run's chunks folder, to refit the "
                                                      "head on the refined trunk.")],
    out: Annotated[Path, typer.Option(help="The run's folder: chunks, settings, and neural.npz.")] = Path(
        "runs/refine"),
    replay: Annotated[list[Path] | None, typer.Option(help="Chunk folders of earlier runs to learn from "
                                                           "too (repeat the option).")] = None,
    seed: Annotated[int, typer.Option(help="Seeds the deals, the seats, the labels and the fitting.")] = 1,
    positions: Annotated[int, typer.Option(help="Card positions the expert labels.")] = 200_000,
    samples: Annotated[int, typer.Option(help="Sampled deals behind each card's value.")] = 128,
    steps: Annotated[int, typer.Option(help="Gradient steps of the fine-tuning.")] = 6_000,
    eval_sets: Annotated[int, typer.Option(help="Duplicate sets against heuristic bots at the end.")] = 50,
    ship: Annotated[bool, typer.Option("--ship/--no-ship", help="Also install the result as the "
                                       "package's neural weights.")] = False,
) -> None:
    """Refine a network's card play on the positions it meets, labelled by a deeper search.

    The network holds most seats; each card it could play is valued by the expert from --samples
    sampled deals; the network is trained on from its own weights on those positions and the
    --replay ones, then its outlook head is refitted. Resumes the labelling from the run folder's
    chunks. Needs PyTorch: pip install 'callbreak\\[train]'.
    """
    from callbreak.bots.neural import Network, NeuralWeightsError
    from callbreak.learn.train import TrainingError

    if positions < 1 or samples < 1 or steps < 1 or eval_sets < 1:
        fail("--positions, --samples, --steps and --eval-sets must be positive")
        return
    folders = replay or []
    missing = [str(f) for f in (*folders, outlook_chunks) if not f.is_dir()]
    if missing:
        fail(f"no chunks folder at {', '.join(missing)}")
        return
    try:
        from callbreak.learn.refine import RefineSettings, run_refine

        s = RefineSettings(seed=seed, positions=positions, samples=samples, steps=steps, eval_sets=eval_sets)
        net = run_refine(Network.load(base), out, s, replay=[p for f in folders for p in sorted(f.glob("*.npz"))],
                         outlook_chunks=outlook_chunks,
                         command="callbreak train-refine " + shlex.join(sys.argv[2:]))
    except (TrainingError, NeuralWeightsError) as e:
        fail(str(e))
        return
    _made(net, out, ship)
