def task_build():
    return {'actions': ['cp src.txt out.txt'], 'file_dep': ['src.txt'], 'targets': ['out.txt']}
