# expect: LimitError
# a[i:j] *= n repeats the slice (checked, within the limit), then assigns it back over
# the slice: the list it grows was not checked (1,100,000 items)
a = [0] * 600000
a[0:500000] *= 2
print(len(a))
