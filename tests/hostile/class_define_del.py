# expect: ForbiddenError
class A:
    def __del__(self):
        print("after the job")
