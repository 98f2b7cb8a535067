try:
    {}['db_url']
except KeyError as e:
    raise RuntimeError('config broken: db_url') from e
