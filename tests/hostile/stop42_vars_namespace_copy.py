# expect: KeyError
# vars(args) is a copy here: a non-text key written to it never reaches the namespace,
# whose names our code looks up.
import argparse
args = argparse.Namespace(lr=0.1)
settings = vars(args)
settings[1] = "one"
print(args)
print(vars(args)[1])
