# Source: github.com/pytorch/tutorials (BSD-3-Clause), beginner_source/introyt/trainingyt.py.
# Changed: the prose (docstring, full-line comments) dropped; Fashion-MNIST replaced by 40
# training and 8 validation seeded random 1x28x28 images in [-1, 1] with random labels
# in TensorDatasets (torchvision and its transforms dropped); the matplotlib display
# (matplotlib_imshow, make_grid) dropped; TensorBoard dropped: the SummaryWriter, its
# add_scalar/add_scalars/flush calls and the datetime timestamp (train_one_epoch gets
# None for its writer); torch.save of the best model dropped (files); the report every
# 1000 batches made every 5; 5 epochs cut to 2.

import torch


training_set = torch.utils.data.TensorDataset(torch.rand(40, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (40,)))
validation_set = torch.utils.data.TensorDataset(torch.rand(8, 1, 28, 28) * 2 - 1, torch.randint(0, 10, (8,)))

training_loader = torch.utils.data.DataLoader(training_set, batch_size=4, shuffle=True)
validation_loader = torch.utils.data.DataLoader(validation_set, batch_size=4, shuffle=False)

classes = ('T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
        'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle Boot')

print('Training set has {} instances'.format(len(training_set)))
print('Validation set has {} instances'.format(len(validation_set)))



dataiter = iter(training_loader)
images, labels = next(dataiter)

print('  '.join(classes[labels[j]] for j in range(4)))



import torch.nn as nn
import torch.nn.functional as F

class GarmentClassifier(nn.Module):
    def __init__(self):
        super(GarmentClassifier, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 4 * 4)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x
    

model = GarmentClassifier()



loss_fn = torch.nn.CrossEntropyLoss()

dummy_outputs = torch.rand(4, 10)
dummy_labels = torch.tensor([1, 5, 3, 7])
    
print(dummy_outputs)
print(dummy_labels)

loss = loss_fn(dummy_outputs, dummy_labels)
print('Total loss for this batch: {}'.format(loss.item()))



optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)



def train_one_epoch(epoch_index, tb_writer):
    running_loss = 0.
    last_loss = 0.
    
    for i, data in enumerate(training_loader):
        inputs, labels = data
        
        optimizer.zero_grad()
        
        outputs = model(inputs)
        
        loss = loss_fn(outputs, labels)
        loss.backward()
        
        optimizer.step()
        
        running_loss += loss.item()
        if i % 5 == 4:
            last_loss = running_loss / 5 # loss per batch
            print('  batch {} loss: {}'.format(i + 1, last_loss))
            tb_x = epoch_index * len(training_loader) + i + 1
            running_loss = 0.
            
    return last_loss



epoch_number = 0

EPOCHS = 2

best_vloss = 1_000_000.

for epoch in range(EPOCHS):
    print('EPOCH {}:'.format(epoch_number + 1))
    
    model.train(True)
    avg_loss = train_one_epoch(epoch_number, None)
    

    running_vloss = 0.0
    model.eval()

    with torch.no_grad():
        for i, vdata in enumerate(validation_loader):
            vinputs, vlabels = vdata
            voutputs = model(vinputs)
            vloss = loss_fn(voutputs, vlabels)
            running_vloss += vloss
    
    avg_vloss = running_vloss / (i + 1)
    print('LOSS train {} valid {}'.format(avg_loss, avg_vloss))
    
    if avg_vloss < best_vloss:
        best_vloss = avg_vloss
    
    epoch_number += 1
