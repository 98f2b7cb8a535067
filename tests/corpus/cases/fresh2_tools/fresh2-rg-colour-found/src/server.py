import os
PORT = int(os.environ.get('PORT', 8080))
