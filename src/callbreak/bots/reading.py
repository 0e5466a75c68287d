"""Reading the other seats' style from their play: how classic is each of them?

The expert's inference from play asks, in each sampled deal, whether a classic player (the
heuristic bot's habits) holding that seat's cards would have played the card that was played,
and scales the deal's weight down for every move that says no. Against a player who is not
classic (a random or greedy bot, a beginner, a search bot) that is wrong twice over: their moves
say little about their hands, and down-weighting deals for them only adds noise.

So each seat is read first. Two models of a move: *classic* (the classic card with probability
1 - SLIP, any other legal card otherwise) and *anything* (every legal card alike). Neither the
reader nor the models see a hidden card: a move's probability under each model is averaged over
the same sampled deals the search uses (drawn from the seat's own view), and the seat's belief
that another seat is classic is the prior times the product of these likelihood ratios over
its moves so far. The inference then uses, for each seat, the mixture's factor for a move the
classic model does not explain: ``1 - belief * (1 - infer)`` (a seat read as classic keeps the
full factor ``infer``; a seat read as random gets 1, no inference).
"""

from __future__ import annotations

import numpy as np

SLIP = 0.1  # how often a classic player is taken to play another card than the model's
PRIOR_CLASSIC = 0.8  # before any move: most players at a table play roughly classic
MIN_BELIEF = 1e-6  # the reading never rules a style out for good


def classic_belief(agree: np.ndarray, options: np.ndarray, weights: np.ndarray, seats: np.ndarray,
                   prior: float = PRIOR_CLASSIC) -> np.ndarray:
    """Each seat's probability of playing classic, given its moves so far.

    ``agree[i, k]`` and ``options[i, k]`` are :func:`callbreak.bots.kernel_classic.classic_agreement`'s
    output for sampled deal ``i`` (of weight ``weights[i]``) and earlier move ``k``, a move of
    ``seats[k]``. Forced moves (and moves the model has no opinion on) say nothing."""
    total = float(weights.sum())
    if total <= 0 or agree.shape[1] == 0:
        return np.full(4, prior)
    w = weights / total
    n = np.maximum(options, 1).astype(float)
    informative = agree >= 0
    # P(the card played | classic) and P(... | any legal card alike), per deal, then averaged.
    classic = np.where(agree == 1, 1 - SLIP, SLIP / np.maximum(n - 1, 1))
    anything = 1 / n
    log_odds = np.full(4, np.log(prior / (1 - prior)))
    for k in range(agree.shape[1]):
        mask = informative[:, k]
        weight = float(w[mask].sum())
        if weight <= 0:
            continue
        like_classic = float(w[mask] @ classic[mask, k]) / weight
        like_anything = float(w[mask] @ anything[mask, k]) / weight
        log_odds[seats[k]] += np.log(like_classic / like_anything)
    belief: np.ndarray = np.clip(1 / (1 + np.exp(-log_odds)), MIN_BELIEF, 1 - MIN_BELIEF)
    return belief


def mismatch_factors(belief: np.ndarray, infer: float) -> np.ndarray:
    """Per seat, the weight factor for a move the classic model does not explain."""
    factors: np.ndarray = 1 - belief * (1 - infer)
    return factors


def apply_inference(agree: np.ndarray, seats: np.ndarray, factors: np.ndarray, weights: np.ndarray) -> None:
    """Scale each sampled deal's weight by its seat's factor for every move classic does not
    explain (in place; the per-seat form of ``classic_weights``)."""
    if agree.shape[1] == 0:
        return
    log_factor = np.log(factors[seats])  # per move
    weights *= np.exp((agree == 0) @ log_factor)
