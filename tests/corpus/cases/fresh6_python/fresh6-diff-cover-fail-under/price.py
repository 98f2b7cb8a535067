def net(gross):
    return gross / 1.2
