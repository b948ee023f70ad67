# expect: ForbiddenError|KeyError|LimitError
# a KeyError whose key is a lone surrogate: error_info repr()s it into the message
d = {}
d[chr(0xDFFF) * 3]
