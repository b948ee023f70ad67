# expect: RuntimeError
# one catch_warnings entered twice (nested): Python's own refusal, no state left half-saved
import warnings
cw = warnings.catch_warnings()
with cw:
    with cw:
        warnings.simplefilter("ignore")
