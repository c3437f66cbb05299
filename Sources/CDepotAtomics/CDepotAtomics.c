// Empty: the operations are inline functions in the header.
