raise ExceptionGroup('validation', [ValueError('bad port'), TypeError('bad host')])
