def hi():
    return 'hi from hello-corpus'
