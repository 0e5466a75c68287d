"""Learning to play: the training run that makes the ``neural`` bot's weights.

:mod:`callbreak.learn.positions` makes labelled positions from self-play on the batched
environment; :mod:`callbreak.learn.train` fits the network to them, generation after generation
(``callbreak train``). Training needs PyTorch (``pip install 'callbreak[train]'``); playing the
result needs numpy alone (:mod:`callbreak.bots.neural`).
"""
