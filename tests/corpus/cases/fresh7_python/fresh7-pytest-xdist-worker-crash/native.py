import os

def load_plugin(name):
    if name == 'broken':
        os._exit(3)
    return name.upper()
