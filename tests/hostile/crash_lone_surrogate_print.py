# expect: ForbiddenError|ValueError|LimitError
# print(chr(0xD800)): a lone surrogate in stdout; orjson refuses it when the trace is written (500)
print(chr(55296))
