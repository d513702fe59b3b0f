"""Where the API lives (config/urls.py mounts it here): its answers, errors and refusals included, are
JSON, and no cache keeps them. The one definition for the middleware and error pages that answer
an API request otherwise than a page."""

API_PATH = "/api/"


def is_api_request(request) -> bool:
    return request.path.startswith(API_PATH)
