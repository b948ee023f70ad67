# expect: ForbiddenError
import torch
print(torch.from_file('/etc/passwd', size=10, dtype=torch.uint8))
