from rich.console import Console
from rich.traceback import install
install(console=Console(stderr=True, force_terminal=True, width=100))

def load(text):
    key, value = text.split("=")
    return {key.strip(): int(value)}

load("workers = four")
