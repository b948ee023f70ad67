# expect: LimitError
# `return`/`continue` inside `finally` swallow LimitError and the alarm's WallTimeExceeded: nested loops keep running past the wall time
import torch
a = torch.randn(700, 700)
def work():
    try:
        b = a @ a
    finally:
        return 0
def level1(n):
    try:
        for i in range(n):
            try:
                work()
            finally:
                continue
    finally:
        return 0
def level2(n):
    try:
        for i in range(n):
            try:
                level1(20)
            finally:
                continue
    finally:
        return 0
def level3(n):
    try:
        for i in range(n):
            try:
                level2(2)
            finally:
                continue
    finally:
        print("survived the wall clock")
        return 0
level3(1000)
