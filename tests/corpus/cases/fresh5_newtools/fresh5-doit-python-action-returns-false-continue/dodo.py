def load():
    print('load: 0 rows read from warehouse (connection refused)')
    return False

def task_data():
    return {'actions': [load], 'verbosity': 2}

def task_report():
    return {'actions': ['echo report'], 'verbosity': 2}
