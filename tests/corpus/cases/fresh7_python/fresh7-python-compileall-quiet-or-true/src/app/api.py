def handler(event):
    return {'status': 200}
