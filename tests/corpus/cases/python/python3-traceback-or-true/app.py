def load(path):
    return open(path).read()

load('/etc/app.toml')
