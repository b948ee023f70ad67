# expect: TypeError
# time.sleep with an object of the program's whose __float__ would run inside C
import time


class Slow:
    def __float__(self):
        while True:
            pass


time.sleep(Slow())
