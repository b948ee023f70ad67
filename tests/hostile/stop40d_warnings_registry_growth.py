# expect: LimitError|TypeError
# warn(UserWarning(obj)) whose __repr__ is short when checked and 99,000 characters when Python's C warn reads it again: each text kept in gradtrace.language.call_path.__warningregistry__ (outlives the job)
import warnings
base = "a" * 99000
class R:
    def __init__(self):
        self.calls = 0
    def __repr__(self):
        self.calls += 1
        if self.calls % 3 != 2:
            return "short"
        return base + str(self.calls)
warnings.simplefilter("default")
r = R()
for i in range(100000):
    warnings.warn(UserWarning(r))
print("done", r.calls)
