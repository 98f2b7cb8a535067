from gettext import gettext as _

def hello():
    return _('Hello')

def bye():
    return _('Goodbye')
