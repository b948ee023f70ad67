# expect: ValueError
# Namespaces holding each other print as "..." where they recur (CPython's recurses until
# a RecursionError), never recursing without end in our code.
import argparse
a = argparse.Namespace()
b = argparse.Namespace(a=a)
a.b = b
a.me = a
print(a, [b])
raise ValueError("printed")
