import os
print("compiling app...")
os.system("gcc -Wall -o app app.c")
print("build finished")
