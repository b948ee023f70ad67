# expect: LimitError|ArgumentError
# Short flags run together (-vvv...) are bounded: each is spliced into the line.
import argparse
p = argparse.ArgumentParser()
p.add_argument("-v", action="count")
p.parse_args(["-" + "v" * 90000])
