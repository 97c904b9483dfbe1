"""The re-ranker's tokens: words and identifier parts (camelCase, snake_case, digits), lower-cased."""
import re

_WORD = re.compile(r'[A-Za-z]+|\d+')
_PART = re.compile(r'[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+')


def tokens(text):
    out = []
    for w in _WORD.findall(text):
        for p in _PART.findall(w):
            out.append(p.lower())
    return out
