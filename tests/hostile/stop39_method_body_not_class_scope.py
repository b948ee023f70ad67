# expect: NameError
# a method called while its class is being built reads the globals, never the namespace
# of the class under construction (nor of any class being built around the call)
class A:
    k = "class"

    def m(self):
        return k

    r = m(None)
