import warnings
warnings.warn('use g() instead; f() will raise an error in 3.0', FutureWarning)
print('done: 3 files')
