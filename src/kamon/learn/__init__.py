"""Learned play: a policy-and-value network per game, trained by expert iteration.

- `kamon.learn.net`: the network evaluated with numpy from its saved weights (a `.npz`;
  no torch at play time), the shipped weights (`weights/<game>.npz`, loaded lazily) and
  `NetGuide`, the network as the search's guide (`MCTSAgent(guide=...)`);
- `kamon.learn.features`: what the network sees and learns: the seat's observation
  (`kamon.rl.encoding`), the legal-move mask, the value targets (final points);
- `kamon.learn.selfplay`: self-play games whose moves come from the search, recording the
  root visit counts (policy targets) and the final points (value targets);
- `kamon.learn.model`: the torch model, its training and its export to `.npz`;
- `kamon.learn.pipeline`: expert iteration in rounds (`kamon train`), resumable;
- `kamon.learn.agents`: the levels that use the network (`fast`, and the guided search);
- `kamon.learn.review`: a finished game's decisions beside the bot's, with what each cost.

See docs/training.md.
"""
