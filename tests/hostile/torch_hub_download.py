# expect: ForbiddenError
import torch
torch.hub.download_url_to_file('http://127.0.0.1:9/x', 'pwned')
