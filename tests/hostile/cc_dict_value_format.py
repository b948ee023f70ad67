# expect: ForbiddenError
# str.format kept in a dict and called through a subscript: invoke() gets name "" and skips format_string's field check
import torch
F = torch.nn.functional
table = {"show": "{0.__globals__[torch].os.environ}".format}
print(table["show"](F.relu)[:60])
