# expect: ForbiddenError
import operator
print(operator.attrgetter('__class__')(1))
