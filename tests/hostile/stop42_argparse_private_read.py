# expect: ForbiddenError
# The parser's own state (its arguments, a group's parser) is not the program's to read.
import argparse
p = argparse.ArgumentParser()
g = p.add_argument_group("g")
print(g._parser._arguments)
