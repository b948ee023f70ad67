# expect: ForbiddenError
import torch
torch.hub.load('pytorch/vision', 'resnet18')
