"""Print the fields of a PDF form, one per line: name, type, required."""
import sys


def main(path):
    print(f"would list the fields of {path}")


if __name__ == "__main__":
    main(sys.argv[1])
