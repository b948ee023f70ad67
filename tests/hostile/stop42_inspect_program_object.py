# expect: TypeError
# inspect.signature takes a function: a program object's __call__ or __len__ is not asked.
import inspect
class C:
    def __call__(self, x):
        raise ValueError("ran")
    def __len__(self):
        raise ValueError("ran")
inspect.signature(C())
