import sys

print("validating", sys.argv[1:])
