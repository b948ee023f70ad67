# expect: LimitError
import collections, torch
d = collections.defaultdict(lambda: torch.zeros(10 ** 9))
d['x']
