from dataclasses import dataclass

@dataclass
class User:
    name: str
    age: int

def load(raw: dict[str, str]) -> User:
    return User(name=raw["name"], age=raw["age"])

def greet(u: User | None) -> str:
    return "hi " + u.name
