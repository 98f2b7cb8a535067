def greet(name: str) -> str:
    # say hello
    return f'Hello, {name}!'
