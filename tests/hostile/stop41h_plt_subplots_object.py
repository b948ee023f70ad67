# expect: TypeError|ValueError|ForbiddenError
# subplots' counts are whole numbers: a program object's __len__ or __eq__ is not asked.
import matplotlib.pyplot as plt
class K:
    def __len__(self):
        raise SystemExit("ran")
    def __eq__(self, other):
        raise SystemExit("ran")
plt.subplots(K())
