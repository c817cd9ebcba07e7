// Expected<T>: a value, or a message that names the rule the input broke. The GUI shows the
// message as-is, so it must say what is wrong and what to change.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace gemmlab {

struct Error {
  std::string message;
};

template <class T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}
  Expected(Error e) : error_(std::move(e.message)) {}

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const std::string& error() const { return error_; }

  const T& value() const {
    if (!value_) throw std::logic_error("Expected::value() on an error: " + error_);
    return *value_;
  }
  T& value() {
    if (!value_) throw std::logic_error("Expected::value() on an error: " + error_);
    return *value_;
  }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }

 private:
  std::optional<T> value_;
  std::string error_;
};

}  // namespace gemmlab
