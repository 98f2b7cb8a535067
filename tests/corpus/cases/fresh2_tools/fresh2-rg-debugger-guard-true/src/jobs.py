def run():
    pass  # TODO: schedule
