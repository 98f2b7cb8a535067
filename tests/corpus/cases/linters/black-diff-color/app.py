import sys,os
def f( x ):
  return {'a':x ,'b':os.sep}
print(f(1),file=sys.stdout)
