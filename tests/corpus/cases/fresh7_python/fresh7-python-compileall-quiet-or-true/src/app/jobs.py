def run(job):
    match job:
        case {'kind': 'email'}:
            return send(job
        case _:
            return None
