from shop import api
