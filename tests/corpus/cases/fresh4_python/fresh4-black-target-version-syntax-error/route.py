def route(cmd):
    match cmd:
        case 'go':
            return 1
        case _:
            return 0
