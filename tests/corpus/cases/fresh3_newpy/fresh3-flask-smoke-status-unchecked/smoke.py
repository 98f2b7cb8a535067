from app import app
c = app.test_client()
for path in ('/health', '/orders'):
    print(path, c.get(path).status_code)
print('smoke done')
